export { AdminEmailService } from "./admin-email-service.js";
export { RenameService } from "./rename-service.js";
export { UnadoptedService } from "./unadopted-service.js";
