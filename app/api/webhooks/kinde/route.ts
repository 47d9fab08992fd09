// The intake lives in lib/api/webhooks.ts (one set of handlers for Next.js and for the production server).
export { receiveKindeWebhook as POST } from "@/lib/api/webhooks";

export const dynamic = "force-dynamic";
