// The public API for users who write their own stages: `import { defineStage } from 'holter-pipeline'`.
export { defineStage } from './core/stage.ts'
export type { Stage, StageContext, OptionsSource } from './core/stage.ts'
export type {
  Item, AnyItem, CustomItem, ItemKinds, SampleBlock, RecordingItem, AnnotationItem, GapItem, WindowItem, BeatItem, RhythmItem,
  QualityItem, LeadQuality, ExcerptItem, ExcerptReason, RenderItem, SummaryItem, WatermarkItem,
} from './core/items.ts'
export { PipelineError } from './core/errors.ts'
// Option checking as the built-ins do it: every problem at once, each at its option's line.
export { parseOptionsWith, z } from './core/stage-options.ts'
export type { ErrorCode } from './core/errors.ts'
// A stage that holds items back passes the watermark on lowered to what it holds (docs/writing-stages.md).
export { createWaitList, createWatermarks, isWatermark, positionOf, watermark } from './core/watermark.ts'
// Bounded, ordered concurrency (model calls, drawing in threads).
export { createOrderedQueue, mapOrdered } from './core/map-ordered.ts'
export type { ItemJournal, MediaStore, MediaFile, MediaAppender, MediaReservation, RunServices, Limiter, LimiterOptions, ContentCache, Secret } from './core/services.ts'
