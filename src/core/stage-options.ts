// Stage options are validated next to each stage with a zod schema (style rule 6); this turns
// the first problem into a PipelineError that names the dataset file and the YAML path.
import { z } from 'zod'
import { PipelineError } from './errors.ts'
import type { OptionsSource } from './stage.ts'

export { z }

/** Parses `raw` with `schema` or throws E_CONFIG_KEY / E_CONFIG_VALUE naming the option. */
export function parseOptionsWith<S extends z.ZodType>(schema: S, raw: unknown, where: OptionsSource): z.infer<S> {
  const result = schema.safeParse(raw ?? {}, { reportInput: true })
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const at = [where.yamlPath, ...issue.path.map(String)].filter(Boolean).join('.')
  if (issue.code === 'unrecognized_keys') {
    const allowed = schema instanceof z.ZodObject ? Object.keys(schema.shape).join(', ') : ''
    throw new PipelineError('E_CONFIG_KEY', `unknown option "${issue.keys[0]}"; allowed options: ${allowed}`, { file: where.file, yamlPath: `${at}.${issue.keys[0]}`, line: where.line })
  }
  const input = (issue as { input?: unknown }).input
  const found = input === undefined ? '' : `, found ${JSON.stringify(input)}`
  throw new PipelineError('E_CONFIG_VALUE', `${issue.message}${found}`, { file: where.file, yamlPath: at, line: where.line })
}
