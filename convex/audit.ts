import * as scripts from "../lib/audit/scripts";
import { wrapMutation, wrapQuery } from "./engine/wrap";

export const record = wrapMutation(scripts.record);
export const list = wrapQuery(scripts.list);
