import type { ReactNode } from "react";

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="mb-6">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      {children ? <div className="mt-1 max-w-3xl text-stone-600">{children}</div> : null}
    </header>
  );
}

/** A page whose part is not built yet says what it will hold, never a blank screen. */
export function Coming({ items }: { items: string[] }) {
  return (
    <section className="rounded-lg border border-dashed border-stone-300 bg-white p-6">
      <h2 className="font-semibold">What this page will hold</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-stone-700">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </section>
  );
}
