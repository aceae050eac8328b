// Stands in for the @x402/* packages when Next.js bundles the app. thirdweb's wallet code reaches
// @coinbase/cdp-sdk, whose x402 payment helpers load @x402/* (optional peer dependencies of that
// SDK) only when one makes an x402 payment. Cuepoint never does, so it does not install them;
// next.config.ts points those imports here so the bundler can resolve them. Loading this module
// fails, and the SDK reports that with its own message ("Install the CDP SDK's x402 peer
// dependencies …").
throw new Error("@x402/* is not installed: Cuepoint makes no x402 payments");

/** The one name the SDK imports statically (in a module it only loads on demand). */
export function toClientEvmSigner(): never {
  throw new Error("@x402/* is not installed: Cuepoint makes no x402 payments");
}
