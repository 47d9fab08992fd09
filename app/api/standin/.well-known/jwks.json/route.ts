// Kinde's own validator fetches jwks.json; the stand-in answers at both paths, as Kinde does.
export { GET } from "../jwks/route";

export const dynamic = "force-dynamic";
