export const dynamic = "force-dynamic";

/** Answers 200 and does nothing else: a liveness probe, and the bare route the intake benchmark compares against. */
export function POST(): Response {
  return new Response("ok", { status: 200 });
}

export function GET(): Response {
  return new Response("ok", { status: 200 });
}
