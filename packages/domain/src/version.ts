/** Kiln's own version: the API reports it as build metadata, the CLI prints it. */
export const KILN_VERSION = "0.1.0";
