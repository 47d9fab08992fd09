export const dynamic = "force-dynamic";

export default async function SignIn({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  return (
    <main className="mx-auto max-w-md px-6 py-24">
      <h1 className="text-2xl font-bold">Sign in to Tollbooth</h1>
      <p className="mt-2 text-sm text-stone-600">
        Paste the operator token. The server printed it the first time it started, and keeps it in{" "}
        <code className="font-mono">.tollbooth/operator-token</code> (or the folder in <code className="font-mono">TOLLBOOTH_DATA_DIR</code>).
      </p>
      <form method="post" action="/api/session" className="mt-6 space-y-3">
        <label className="block text-sm font-medium" htmlFor="token">
          Operator token
        </label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="current-password"
          required
          className="w-full rounded-md border border-stone-300 px-3 py-2 font-mono"
        />
        {error ? <p className="text-sm text-red-700">That token is not the operator token.</p> : null}
        <button type="submit" className="rounded-md bg-stone-900 px-4 py-2 font-medium text-white hover:bg-stone-700">
          Sign in
        </button>
      </form>
    </main>
  );
}
