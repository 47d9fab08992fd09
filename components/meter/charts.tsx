"use client";

/** The meter's charts (Recharts): a link's clicks by day, and a cycle's ledger against its meter over time. */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export function ClicksByDayChart({ days }: { days: { day: string; clicks: number }[] }) {
  if (days.length === 0) return <p className="text-sm text-stone-500">No clicks in this cycle yet.</p>;
  return (
    <div className="h-64 w-full" data-testid="clicks-by-day">
      <ResponsiveContainer>
        <BarChart data={days} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e7e5e4" />
          <XAxis dataKey="day" tick={{ fontSize: 12 }} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
          <Tooltip />
          <Bar dataKey="clicks" fill="#292524" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export interface MeterPoint {
  atMs: number;
  ledger?: number;
  meter?: number;
  sent?: number;
}

const tick = (ms: number) => new Date(ms).toISOString().slice(5, 16).replace("T", " ");

/** Ledger (what happened), meter (what the provider held when checked) and totals sent, over time. */
export function LedgerMeterChart({ points }: { points: MeterPoint[] }) {
  if (points.length === 0) return <p className="text-sm text-stone-500">Nothing reported or reconciled in this cycle yet.</p>;
  return (
    <div className="h-64 w-full" data-testid="ledger-meter-chart">
      <ResponsiveContainer>
        <LineChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e7e5e4" />
          <XAxis dataKey="atMs" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={tick} tick={{ fontSize: 12 }} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
          <Tooltip labelFormatter={(ms) => `${new Date(Number(ms)).toISOString().replace("T", " ").slice(0, 19)} UTC`} />
          <Legend />
          <Line type="stepAfter" dataKey="ledger" name="ledger" stroke="#292524" connectNulls dot isAnimationActive={false} />
          <Line type="stepAfter" dataKey="meter" name="meter (read)" stroke="#d97706" connectNulls dot isAnimationActive={false} />
          <Line type="stepAfter" dataKey="sent" name="total sent" stroke="#2563eb" strokeDasharray="4 3" connectNulls dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
