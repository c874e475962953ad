// ESLint flat config. Besides Next's recommended rules it enforces the layering
// of DESIGN.md §2: dependencies point inward, UI code never reaches server code.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// lib/environments/descriptors is the pure client registry of the families (no Node, no React;
// tests/environments/descriptors.test.ts checks what it reaches), so client code may read it.
const serverOnly = ["@/lib/engine/*", "@/lib/llm/*", "@/lib/db/*", "@/lib/server/*", "@/lib/sandbox/*", "@/lib/environments/*", "@/lib/cli/*", "!@/lib/environments/descriptors"];
const restrict = (patterns, message) => ({
  "no-restricted-imports": ["error", { patterns: [{ group: patterns, message }] }],
});

// A rule lives in one place (DESIGN.md §8): what a strategy does is read from its method
// descriptor (lib/methods/<id>/descriptor.ts, through lib/domain/strategies.ts), never
// re-derived by comparing its name. Only the method folders and the family folders (which
// choose their per-strategy templates and texts) may compare strategy names.
const STRATEGY_NAME = "/^(none|reflexion|last-attempt|last-attempt-and-reflexion|cot|cot-gold-context)$/";
const STRATEGY_RULE_MESSAGE =
  "Strategy behaviour is not re-implemented here: read the method's descriptor (lib/methods/registry.ts: methodDescriptor) or the rules built on it (lib/domain/strategies.ts: strategyBehaviour, fixedLimitsOf; lib/domain/next-step.ts, next-trial.ts, fork-outlook.ts). A new behaviour is a new descriptor field (docs/adding-a-method.md).";
const noStrategyComparisons = {
  "no-restricted-syntax": [
    "error",
    { selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal[value=${STRATEGY_NAME}]`, message: STRATEGY_RULE_MESSAGE },
    { selector: `SwitchCase > Literal.test[value=${STRATEGY_NAME}]`, message: STRATEGY_RULE_MESSAGE },
  ],
};

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: [".next/**", "node_modules/**", "public/vendor/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "lib/db/migrations/**"],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // The method registry is pure data (a descriptor per method folder), read by the strategy schema and rules.
    files: ["lib/domain/**"],
    rules: restrict(["@/lib/*", "!@/lib/domain", "!@/lib/domain/*", "!@/lib/utils/*", "!@/lib/methods", "@/lib/methods/*", "!@/lib/methods/registry", "!@/lib/methods/method-descriptor", "react", "next", "next/*"], "lib/domain imports only zod, lib/utils and the method registry (DESIGN.md §2)."),
  },
  {
    // Method descriptors are pure data: client code and lib/domain read them (docs/adding-a-method.md).
    files: ["lib/methods/**"],
    rules: restrict(["@/*", "react", "next", "next/*", "node:*"], "A method descriptor imports nothing but its own folder's types (docs/adding-a-method.md)."),
  },
  {
    files: ["lib/engine/**"],
    rules: restrict(["@/lib/llm/*", "@/lib/db/*", "@/lib/server/*", "@/lib/environments/*", "@/lib/query/*", "@/lib/store/*", "@/components/*", "react", "next", "next/*", "better-sqlite3", "drizzle-orm", "drizzle-orm/*"], "lib/engine is plain TS: it talks to ports, not to adapters, React, Next or the DB (DESIGN.md §2)."),
  },
  {
    files: ["lib/environments/**"],
    rules: restrict(["@/lib/llm/*", "@/lib/db/*", "@/lib/server/*", "@/lib/query/*", "@/lib/store/*", "@/components/*", "react", "next", "next/*"], "Environments depend only on lib/domain (DESIGN.md §3)."),
  },
  {
    files: ["lib/graph/**"],
    rules: restrict([...serverOnly, "react", "react-dom", "@/components/*"], "lib/graph is a pure projection: no React, no server code."),
  },
  {
    files: ["components/**", "lib/query/**", "lib/store/**", "app/**/*.tsx"],
    rules: restrict(serverOnly, "Client code never imports server code; go through lib/query and the HTTP API (DESIGN.md §2)."),
  },
  {
    // Server pages and layouts may ask lib/server/page-lookup whether their id exists, to answer 404 with notFound().
    files: ["app/**/page.tsx", "app/**/layout.tsx"],
    rules: restrict([...serverOnly, "!@/lib/server/page-lookup"], "Client code never imports server code; go through lib/query and the HTTP API (DESIGN.md §2). Server pages may use only lib/server/page-lookup."),
  },
  {
    files: ["lib/**", "components/**", "app/**", "bin/**"],
    ignores: ["lib/methods/**", "lib/environments/*/**"],
    rules: noStrategyComparisons,
  },
];

export default config;
