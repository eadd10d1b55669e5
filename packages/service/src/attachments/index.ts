export {
  type AttachmentDownload,
  AttachmentService,
  type AttachmentTarget,
  type FileUpload,
  MAX_ATTACHMENT_NAME,
  removeAttachments,
} from "./attachment-service.js";
export { IssueAttachmentService } from "./issue-attachment-service.js";
