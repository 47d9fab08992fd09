/** The shapes of the sign-in, setup and invite forms, checked at their edge. */
import { z } from "zod";
import { personName } from "../people/scripts";
import { emailSchema } from "../validation";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password";

const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `a password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `a password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
const token = (what: string) => z.string().trim().min(20, what).max(200, what).regex(/^[A-Za-z0-9_-]+$/, what);

export const signInForm = z.strictObject({
  email: emailSchema,
  password: z.string().min(1, "your password").max(PASSWORD_MAX_LENGTH, `a password of at most ${PASSWORD_MAX_LENGTH} characters`),
});

export const setupForm = z.strictObject({
  setupToken: token("the setup token the server printed at its first start"),
  email: emailSchema,
  name: personName,
  password: newPassword,
});

/** With Kinde, the first operator proves the setup token here and then who they are at Kinde. */
export const kindeSetupForm = z.strictObject({ setupToken: setupForm.shape.setupToken });

export const acceptInviteForm = z.strictObject({
  token: token("the token from the invite link"),
  name: personName,
  password: newPassword,
});

export const kindeAcceptInviteForm = z.strictObject({ token: acceptInviteForm.shape.token });
