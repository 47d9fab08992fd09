/** The sidebar's foot on operator and member pages: who is signed in, and the sign-out form. */
export function SignedIn({ email }: { email: string }) {
  return (
    <>
      <p className="mt-4 px-3 text-xs text-stone-600" data-testid="signed-in-as">
        {email}
      </p>
      <form method="post" action="/api/session/signout" className="mt-1 px-3">
        <button type="submit" className="text-xs text-stone-600 underline">
          Sign out
        </button>
      </form>
    </>
  );
}
