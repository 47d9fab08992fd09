import * as scripts from "../lib/links/scripts";
import { wrapMutation, wrapQuery } from "./engine/wrap";

export const create = wrapMutation(scripts.create);
export const resolve = wrapQuery(scripts.resolve);
export const click = wrapMutation(scripts.click);
export const get = wrapQuery(scripts.get);
export const list = wrapQuery(scripts.list);
export const stats = wrapQuery(scripts.stats);
export const listWithClicks = wrapQuery(scripts.listWithClicks);
