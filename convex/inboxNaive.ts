import * as scripts from "../lib/inbox/naive-scripts";
import { wrapMutation } from "./engine/wrap";

export const setPlan = wrapMutation(scripts.setPlan);
export const grant = wrapMutation(scripts.grant);
