export { type AppOptions, createApp, enabledRoutes, type RequestLog } from "./app.js";
export { compatibilityMarkdown, type ForgejoOperation, parseForgejoOperations } from "./compatibility.js";
export type { AppContext, AppEnv } from "./env.js";
export { errorBody, onError, statusOf } from "./errors.js";
export { linkHeader, pageRequest, setPagingHeaders } from "./pagination.js";
export { pageQuery, qs } from "./query.js";
export { enforceQuota, enforceRouteQuota } from "./quota-enforcement.js";
export {
  type Access,
  type AnyRoute,
  honoPath,
  type ResponseDoc,
  type RouteDef,
  type RouteInput,
  type RouteQuota,
  route,
} from "./route.js";
export { allRoutes } from "./routes/index.js";
export { API_VERSION, KILN_VERSION } from "./routes/misc/version.js";
export { buildSwagger } from "./swagger/build.js";
