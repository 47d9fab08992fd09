/** A grid of labelled facts (an account's id, plan, cycle…). */
export function Facts({ facts, testId }: { facts: [string, string][]; testId?: string }) {
  return (
    <dl className="grid max-w-4xl grid-cols-3 gap-3 text-sm" data-testid={testId}>
      {facts.map(([label, value]) => (
        <div key={label} className="rounded-md border border-stone-200 bg-white p-3">
          <dt className="text-stone-500">{label}</dt>
          <dd className="mt-1 break-all font-mono">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
