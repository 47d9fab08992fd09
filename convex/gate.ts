import * as scripts from "../lib/gate/scripts";
import { wrapMutation, wrapQuery } from "./engine/wrap";

export const reserve = wrapMutation(scripts.reserve);
export const charge = wrapMutation(scripts.charge);
export const extend = wrapMutation(scripts.extend);
export const settle = wrapMutation(scripts.settleJob);
export const sweep = wrapMutation(scripts.sweep);
export const claimLimitRead = wrapMutation(scripts.claimLimitRead);
export const storeLimit = wrapMutation(scripts.storeLimit);
export const recordLimitFailure = wrapMutation(scripts.recordLimitFailure);
export const dropLimit = wrapMutation(scripts.dropLimit);
export const configureAccount = wrapMutation(scripts.configureAccount);
export const getJob = wrapQuery(scripts.getJob);
export const budget = wrapQuery(scripts.budget);
export const accountView = wrapQuery(scripts.accountView);
