import * as scripts from "../lib/usage/scripts";
import { wrapMutation, wrapQuery } from "./engine/wrap";

export const record = wrapMutation(scripts.record);
export const total = wrapQuery(scripts.total);
export const correct = wrapMutation(scripts.correct);
export const recent = wrapQuery(scripts.recent);
