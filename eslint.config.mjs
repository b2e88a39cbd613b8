import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/** Domain code in lib/ stays pure: no React, Prisma, three or Next (lib/server is the exception). */
const PURE_LIB_BANS = {
  paths: [
    { name: "react", message: "lib/ is pure domain code; React belongs in components/ or app/." },
    { name: "three", message: "lib/ is pure domain code; three belongs in components/molecule/." },
    { name: "server-only", message: "only lib/server/ is server-only." },
  ],
  patterns: [
    {
      group: ["@prisma/*", "@/prisma/*", "next", "next/*", "@/lib/server/*"],
      message: "lib/ is pure; data access lives in lib/server/.",
    },
  ],
};

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "prisma/generated/**",
      ".data/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["lib/**/*.ts"],
    ignores: ["lib/server/**"],
    rules: { "no-restricted-imports": ["error", PURE_LIB_BANS] },
  },
  {
    // Participant screens and the shared UI never load staff code: what the participant's browser gets stays free of
    // the admin pages' components (shared pieces live in components/ui).
    files: ["components/study/**/*.{ts,tsx}", "components/molecule/**/*.{ts,tsx}", "components/ui/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/components/admin/*", "../admin/*"],
              message: "participant code does not depend on admin code; move the shared piece to components/ui.",
            },
          ],
        },
      ],
    },
  },
  {
    // Exports read results; results never format for an export (the one arrow that would run back up).
    files: ["lib/results/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          ...PURE_LIB_BANS,
          patterns: [
            ...PURE_LIB_BANS.patterns,
            { group: ["@/lib/export/*", "../export/*"], message: "lib/results sits below lib/export." },
          ],
        },
      ],
    },
  },
  {
    // The participant flow's SQL lives in its statement and function files (lib/server/participant-flow/statements, run by
    // flowQuery), where each capacity rule is one function: no SQL written inside TypeScript here.
    files: ["lib/server/participant-flow/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "TaggedTemplateExpression[tag.property.name=/^\\$(queryRaw|executeRaw)$/]",
          message:
            "Participant-flow SQL goes in lib/server/participant-flow/statements/*.sql and runs through flowQuery.",
        },
        {
          selector: "CallExpression[callee.property.name=/^\\$(queryRaw|executeRaw)(Unsafe)?$/]",
          message:
            "Participant-flow SQL goes in lib/server/participant-flow/statements/*.sql and runs through flowQuery.",
        },
        {
          selector:
            "TaggedTemplateExpression[tag.name='sql'], TaggedTemplateExpression[tag.object.name='Prisma'][tag.property.name='sql']",
          message:
            "Participant-flow SQL goes in lib/server/participant-flow/statements/*.sql and runs through flowQuery.",
        },
      ],
    },
  },
];

export default config;
