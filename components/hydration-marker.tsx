"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * An empty element that says whether React has hydrated the page: "false" in
 * the server's HTML, "true" once the client has taken over (browser tests wait
 * for it before using a form whose result needs JavaScript).
 */
export function HydrationMarker() {
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  return <span hidden data-hydrated={hydrated ? "true" : "false"} />;
}
