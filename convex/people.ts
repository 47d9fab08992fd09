import * as scripts from "../lib/people/scripts";
import { wrapMutation, wrapQuery } from "./engine/wrap";

export const setupStatus = wrapQuery(scripts.setupStatus);
export const setupFirstOperator = wrapMutation(scripts.setupFirstOperator);
export const credentialsFor = wrapQuery(scripts.credentialsFor);
export const byKindeUserId = wrapQuery(scripts.byKindeUserId);
export const signIn = wrapMutation(scripts.signIn);
export const sessionByToken = wrapQuery(scripts.sessionByToken);
export const endSession = wrapMutation(scripts.endSession);
export const invite = wrapMutation(scripts.invite);
export const inviteByToken = wrapQuery(scripts.inviteByToken);
export const acceptInvite = wrapMutation(scripts.acceptInvite);
export const listOperators = wrapQuery(scripts.listOperators);
export const listMembers = wrapQuery(scripts.listMembers);
export const listOpenInvites = wrapQuery(scripts.listOpenInvites);
export const setDisabled = wrapMutation(scripts.setDisabled);
