import * as scripts from "../lib/accounts/scripts";
import { wrapMutation, wrapQuery } from "./engine/wrap";

export const create = wrapMutation(scripts.create);
export const open = wrapMutation(scripts.open);
export const get = wrapQuery(scripts.get);
export const getByKindeCustomerId = wrapQuery(scripts.getByKindeCustomerId);
export const list = wrapQuery(scripts.list);
export const update = wrapMutation(scripts.update);
