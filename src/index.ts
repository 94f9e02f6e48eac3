// The public API for users who write their own stages: `import { defineStage } from 'holter-pipeline'`.
export { defineStage } from './core/stage.ts'
export type { Stage, StageContext, OptionsSource } from './core/stage.ts'
export type { Item, SampleBlock, RecordingItem, AnnotationItem, GapItem, WindowItem, CustomItem } from './core/items.ts'
export { PipelineError } from './core/errors.ts'
// Option checking as the built-ins do it: every problem at once, each at its option's line.
export { parseOptionsWith, z } from './core/stage-options.ts'
export type { ErrorCode } from './core/errors.ts'
export type { ItemJournal } from './core/services.ts'
