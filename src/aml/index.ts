/**
 * AML's face: address analysis (exposure, score and tags) and the labels it is computed from
 * (labels/: the shipped OFAC list, operator CSV files, imports). Nothing outside this folder
 * imports a file in it but this one.
 */
export { analyzeAddress } from './analyze.js';
export {
  explainAnalysis,
  explanationIds,
  type Explanation,
  type ExplanationIds,
} from './explain.js';
export {
  applyPendingExposure,
  exposureEdgesChanged,
  forgetExposure,
  rebuildExposure,
  syncExposureSettings,
} from './exposure-store.js';
export { LabelFileError } from './labels/csv-labels.js';
export { storeLabelFile, type ImportReport } from './labels/import.js';
export { labelStats, type LabelStats } from './labels/imports.js';
export { LABEL_FORMATS, loadLabelFile } from './labels/load.js';
export { importShippedLabels } from './labels/shipped.js';
export { readRescanCategories, tagFollowsCategories } from './rescan-queue.js';
export { EVM_SCOPE, type LabelFormat } from './labels/types.js';
export {
  forgetListChanges,
  indexListEvents,
  listContracts,
  revertListEvents,
  type ListContract,
} from './onchain-lists.js';
export {
  ALL_TAGS,
  BASE_TAGS,
  PREFIXED_TAGS,
  buildTags,
  isBaseTag,
  trueTags,
  type AmlTags,
} from './tags.js';
