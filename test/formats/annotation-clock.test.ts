import { describe, expect, it } from 'vitest'
import { createAnnotationClock } from '../../src/formats/annotation-clock.ts'

describe('annotation clock (sidecar samples and times across EDF+D gaps)', () => {
  it.each([
    ['a time without gaps', { sample: null, timeMs: 213.889 }, [], { sample: 77, timeMs: 213.889 }],
    ['a sample without gaps, timed as the WFDB reader does', { sample: 77, timeMs: null }, [], { sample: 77, timeMs: 213.889 }],
    ['both given: kept as they are', { sample: 5, timeMs: 9 }, [{ startMs: 0, endMs: 1000, atSample: 0 }], { sample: 5, timeMs: 9 }],
    ['a time after a gap', { sample: null, timeMs: 3500 }, [{ startMs: 1000, endMs: 3000, atSample: 360 }], { sample: 540, timeMs: 3500 }],
    ['a time inside a gap: the first sample after it', { sample: null, timeMs: 2000 }, [{ startMs: 1000, endMs: 3000, atSample: 360 }], { sample: 360, timeMs: 2000 }],
    ['a time before a later gap', { sample: null, timeMs: 500 }, [{ startMs: 1000, endMs: 3000, atSample: 360 }], { sample: 180, timeMs: 500 }],
    ['a sample after two gaps', { sample: 900, timeMs: null }, [{ startMs: 1000, endMs: 3000, atSample: 360 }, { startMs: 4000, endMs: 10000, atSample: 720 }], { sample: 900, timeMs: 10500 }],
    ['a sample at a gap: the time its data resumes', { sample: 360, timeMs: null }, [{ startMs: 1000, endMs: 3000, atSample: 360 }], { sample: 360, timeMs: 3000 }],
    ['a record starting late (a gap at sample 0)', { sample: null, timeMs: 5000 }, [{ startMs: 0, endMs: 4000, atSample: 0 }], { sample: 360, timeMs: 5000 }],
  ])('places %s', (_, position, gaps, expected) => {
    const clock = createAnnotationClock()
    for (const g of gaps) clock.addGap(g)
    expect(clock.place(position, 360)).toEqual(expected)
  })
})
