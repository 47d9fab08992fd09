import * as scripts from "../lib/standin/scripts";
import { wrapMutation, wrapQuery } from "./engine/wrap";

export const readLimit = wrapMutation(scripts.readLimit);
export const currentAgreement = wrapMutation(scripts.currentAgreement);
export const setUsage = wrapMutation(scripts.setUsage);
export const readUsage = wrapMutation(scripts.readUsage);
export const changePlan = wrapMutation(scripts.changePlan);
export const setLimit = wrapMutation(scripts.setLimit);
export const clearLimit = wrapMutation(scripts.clearLimit);
export const limits = wrapQuery(scripts.limits);
export const listOverrides = wrapQuery(scripts.listOverrides);
export const meterRecords = wrapQuery(scripts.meterRecords);
export const setFault = wrapMutation(scripts.setFault);
export const clearFault = wrapMutation(scripts.clearFault);
export const faults = wrapQuery(scripts.faults);
export const signingKey = wrapQuery(scripts.signingKey);
export const installSigningKey = wrapMutation(scripts.installSigningKey);
export const publicKeys = wrapQuery(scripts.publicKeys);
