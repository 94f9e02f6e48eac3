// A case is one person's recordings: the records that share `patient.id` (Icentia11k's segments
// of one patient, globbed as records of their own), or a record on its own when none is given.
import type { RecordSpec } from '../core/record.ts'

/** The case a record belongs to: its patient's id when the dataset gives one, else the record's own id. */
export function caseIdOf(record: RecordSpec): string {
  return record.patient?.id ?? record.id
}
