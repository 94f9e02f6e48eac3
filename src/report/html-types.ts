// What the HTML report renders: a generic view of tables, charts and sample items,
// built from the scores by src/report/view.ts and rendered by html-page.ts / html-write.ts.
// Plain data only, so the page and the PNG plots are a pure function of it (plus the strip
// images it names). The named parts below are aliases into ReportView, not separate shapes.

/** The whole report: sections of tables, charts and sample items, then the metric signatures. */
export interface ReportView {
  title: string
  subtitle?: string
  sections: {
    heading: string
    intro?: string
    tables: { caption: string; columns: string[]; rows: (string | number | null)[][]; note?: string }[]
    charts: { id: string; title: string; kind: 'bars-with-ci'; yLabel: string; data: { task: string; model: string; value: number; low: number | null; high: number | null }[] }[]
    samples: { task: string; question: string; gold: string; image?: string /* absolute path of a PNG */; answers: { model: string; answer: string; score: string }[] }[]
  }[]
  signatures: { metric: string; signature: string }[]
}

export type ReportSection = ReportView['sections'][number]
export type ReportTable = ReportSection['tables'][number]
export type ReportChart = ReportSection['charts'][number]
export type ReportSample = ReportSection['samples'][number]
