import type { ReactNode } from "react";

export const fieldClass = "w-full rounded-md border border-stone-300 px-3 py-2";
export const buttonClass = "rounded-md bg-stone-900 px-4 py-2 font-medium text-white hover:bg-stone-700";

/** The frame of the sign-in, setup and invite pages. */
export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-md px-6 py-24">
      <h1 className="text-2xl font-bold">{title}</h1>
      {intro ? <div className="mt-2 text-sm text-stone-600">{intro}</div> : null}
      <div className="mt-6">{children}</div>
    </main>
  );
}

export function Field({ id, label, ...props }: { id: string; label: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label className="block text-sm font-medium" htmlFor={id}>
        {label}
      </label>
      <input id={id} name={id} className={fieldClass} {...props} />
    </div>
  );
}
