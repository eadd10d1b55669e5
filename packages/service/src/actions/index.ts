export { artifactExpiryTask } from "./artifact-expiry.js";
export { MAX_ARTIFACT_NAME } from "./artifact-input.js";
export { ArtifactService, type ArtifactUpload, type OpenedArtifact } from "./artifact-service.js";
