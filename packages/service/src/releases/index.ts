export {
  type CreateReleaseInput,
  type EditReleaseInput,
  type ReleaseListQuery,
  ReleaseService,
} from "./release-service.js";
