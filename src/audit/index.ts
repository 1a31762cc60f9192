/** The audit log's face. Nothing outside this folder imports a file in it but this one. */
export {
  AUDIT_ACTIONS,
  exportAudit,
  listAudit,
  MAX_EXPORT_ROWS,
  recordAudit,
  type AuditAction,
  type AuditEntry,
  type AuditFilter,
} from './audit.js';
export { currentAuditClient, withAuditClient } from './client.js';
export { auditCsv } from './csv.js';
export { auditChainHead, verifyAuditChain, type ChainReport } from './verify.js';
