export { main } from "./cli.js";
export { applyEnvOverrides, parseIni } from "./config/ini.js";
export { ConfigError, loadSettings } from "./config/load-settings.js";
export { resolveConfig } from "./config/resolve.js";
export { type RunningServer, startWeb } from "./web/run-web.js";
