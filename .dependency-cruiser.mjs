/**
 * The project's layering (docs/architecture.md, "Where things go"): app/ → components/ → lib/ →
 * types/, pointing down only, and no import circles anywhere. Run by the lint layer of `npm test`
 * (`npm run lint`), which fails on any violation.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
const config = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules that import each other cannot be read, tested or loaded one at a time.",
      from: {},
      to: { circular: true },
    },
    {
      name: "components-not-to-app",
      severity: "error",
      comment: "app/ holds routes only; what a component needs lives in components/ or lib/.",
      from: { path: "^components/" },
      to: { path: "^app/" },
    },
    {
      name: "lib-not-up",
      severity: "error",
      comment: "lib/ is below the UI: it never imports components/ or app/.",
      from: { path: "^lib/" },
      to: { path: "^(components|app)/" },
    },
    {
      name: "types-not-up",
      severity: "error",
      comment: "types/ is generated and depends on nothing of the project.",
      from: { path: "^types/" },
      to: { path: "^(lib|components|app)/" },
    },
    {
      name: "product-not-to-stack",
      severity: "error",
      comment: "The local backend and the local chain's deployment are tooling: the product never imports them.",
      from: { path: "^(app|components|lib|types|supabase)/" },
      to: { path: "^(stack|chain)/" },
    },
    {
      name: "stack-not-to-product",
      severity: "error",
      comment: "stack/ is generic: it knows nothing of the product's code.",
      from: { path: "^stack/" },
      to: { path: "^(app|components|lib|types|chain)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next|\\.stack|\\.ci)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

export default config;
