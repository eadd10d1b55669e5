export { AdminEmailService } from "./admin-email-service.js";
export { UnadoptedService } from "./unadopted-service.js";
