/** The audit log's face. Nothing outside this folder imports a file in it but this one. */
export { AUDIT_ACTIONS, listAudit, recordAudit, type AuditAction } from './audit.js';
export { verifyAuditChain, type ChainReport } from './verify.js';
