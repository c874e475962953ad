// ESLint flat config. Besides Next's recommended rules it enforces the layering
// of DESIGN.md §2: dependencies point inward, UI code never reaches server code.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import { existsSync, readdirSync } from "node:fs";

// lib/environments/descriptors is the pure client registry of the families (no Node, no React;
// tests/environments/descriptors.test.ts checks what it reaches), so client code may read it.
const serverOnly = ["@/lib/engine/*", "@/lib/llm/*", "@/lib/db/*", "@/lib/server/*", "@/lib/sandbox/*", "@/lib/environments/*", "@/lib/cli/*", "!@/lib/environments/descriptors"];
const restrict = (patterns, message) => ({
  "no-restricted-imports": ["error", { patterns: [{ group: patterns, message }] }],
});

// A rule lives in one place (DESIGN.md §8): what a strategy does is read from its method
// descriptor (lib/methods/<id>/descriptor.ts, through lib/domain/strategies.ts), never
// re-derived by comparing its name. Only the method folders and the family folders (which
// choose their per-strategy templates and texts) may compare strategy names. The methods are the
// folders of lib/methods that hold a descriptor (folder = id), so a new method is guarded at once.
const METHOD_IDS = readdirSync(new URL("./lib/methods/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`./lib/methods/${entry.name}/descriptor.ts`, import.meta.url)))
  .map((entry) => entry.name);
const STRATEGY_NAME = `/^(${METHOD_IDS.join("|")})$/`;
const STRATEGY_RULE_MESSAGE =
  "Strategy behaviour is not re-implemented here: read the method's descriptor (lib/methods/registry.ts: methodDescriptor) or the rules built on it (lib/domain/strategies.ts: strategyBehaviour, fixedLimitsOf; lib/domain/next-step.ts, next-trial.ts, fork-outlook.ts). A new behaviour is a new descriptor field (docs/adding-a-method.md).";
/** The selectors of a guard against comparing a name matching `names` (===, !==, ==, !=, switch case). */
const comparisonsOf = (names, message) => [
  { selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal[value=${names}]`, message },
  { selector: `SwitchCase > Literal.test[value=${names}]`, message },
];
const STRATEGY_COMPARISONS = comparisonsOf(STRATEGY_NAME, STRATEGY_RULE_MESSAGE);

// One folder per family (docs/adding-a-family.md): what differs between task families is read
// from their descriptors (lib/environments/<family>/descriptor.ts, through
// lib/environments/descriptors.ts), never by comparing a family's id. Only a family's own folder
// and the two registries that list the families may compare family ids; tests assert them.
// The families are the folders of lib/environments that hold a descriptor, so a new family is guarded as soon as it exists.
const FAMILY_IDS = readdirSync(new URL("./lib/environments/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`./lib/environments/${entry.name}/descriptor.ts`, import.meta.url)))
  .map((entry) => entry.name);
const FAMILY_NAME = `/^(${FAMILY_IDS.join("|")})$/`;
const FAMILY_RULE_MESSAGE =
  "A task family's id is compared only in its own folder (lib/environments/<family>/) and the registries: read what differs from its descriptor (lib/environments/descriptors.ts: familyDescriptor(id)), or add a descriptor field (docs/adding-a-family.md).";
const FAMILY_COMPARISONS = comparisonsOf(FAMILY_NAME, FAMILY_RULE_MESSAGE);
const FAMILY_REGISTRIES = ["lib/environments/descriptors.ts", "lib/environments/registry.ts"];

/** `no-restricted-syntax` with the given guards' selectors. */
const restrictedSyntax = (...guards) => ({ "no-restricted-syntax": ["error", ...guards.flat()] });

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
    rules: restrict(["@/lib/llm/*", "@/lib/db/*", "@/lib/server/*", "@/lib/environments/*", "@/lib/query/*", "@/lib/store/*", "@/components/*", "react", "next", "next/*", "node:sqlite", "better-sqlite3", "drizzle-orm", "drizzle-orm/*"], "lib/engine is plain TS: it talks to ports, not to adapters, React, Next or the DB (DESIGN.md §2)."),
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
    // Server pages and layouts may ask lib/server/page-lookup whether their id exists, to answer 404 with notFound(),
    // and the help pages read the guides through lib/server/help-guides (and ask lib/server/help-images which
    // screenshots the app serves) when `next build` renders them.
    files: ["app/**/page.tsx", "app/**/layout.tsx"],
    rules: restrict([...serverOnly, "!@/lib/server/page-lookup", "!@/lib/server/help-guides", "!@/lib/server/help-images"], "Client code never imports server code; go through lib/query and the HTTP API (DESIGN.md §2). Server pages may use only lib/server/page-lookup (and lib/server/help-guides, lib/server/help-images for the help pages)."),
  },
  // A later config object replaces an earlier one's `no-restricted-syntax` options rather than
  // adding to them, so each set of files gets every guard that covers it: the family guard
  // everywhere but the family folders, the registries, tests and e2e; both guards where the
  // strategy guard applies too; the strategy guard alone in the two registries.
  {
    files: ["**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}"],
    ignores: ["lib/environments/*/**", ...FAMILY_REGISTRIES, "tests/**", "e2e/**"],
    rules: restrictedSyntax(FAMILY_COMPARISONS),
  },
  {
    files: ["lib/**", "components/**", "app/**", "bin/**"],
    ignores: ["lib/methods/**", "lib/environments/*/**"],
    rules: restrictedSyntax(STRATEGY_COMPARISONS, FAMILY_COMPARISONS),
  },
  {
    files: FAMILY_REGISTRIES,
    rules: restrictedSyntax(STRATEGY_COMPARISONS),
  },
];

export default config;
