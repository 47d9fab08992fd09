import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const GUARDS = "/^(authenticate|requireOperator|requireOperatorSession|requireMemberSession|audit)$/";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", ".next-*/**", "dist/**", "node_modules/**", "convex/_generated/**", ".tollbooth/**", ".tollbooth-kinde-fake/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // The auth guards are async: a guard whose promise is dropped guards nothing.
      "no-restricted-syntax": [
        "error",
        {
          selector: `CallExpression[callee.name=${GUARDS}]:not(AwaitExpression > CallExpression):not(ReturnStatement > CallExpression)`,
          message: "Await this guard (await requireOperator(request)): a guard whose promise is not awaited lets every request through.",
        },
      ],
    },
  },
];

export default config;
