/**
 * A Node module hook for the development server (scripts/dev-server.mts): `server-only` resolves to an empty module.
 * The package's default export throws outside a react-server bundle, and the front's modules are loaded by Node, not
 * by Next's bundler; the production bundle empties it the same way (scripts/build-server.mts). Only this one package
 * is mapped: the process keeps Node's default conditions, so Next's own server gets the React builds it expects.
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "server-only") return { url: "data:text/javascript,", shortCircuit: true };
  return nextResolve(specifier, context);
}
