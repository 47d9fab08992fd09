import * as scripts from "../lib/keys/scripts";
import { wrapMutation, wrapQuery } from "./engine/wrap";

export const create = wrapMutation(scripts.create);
export const authenticate = wrapQuery(scripts.authenticate);
export const list = wrapQuery(scripts.list);
export const revoke = wrapMutation(scripts.revoke);
export const touch = wrapMutation(scripts.touch);
