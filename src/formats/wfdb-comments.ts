// Patient age and sex from WFDB header comments. There is no standard field, only habits:
// MIT-BIH starts its comments with `# 69 M 1085 1629 x1` (age, sex, then tape data), other
// databases write `# Age: 69 Sex: M` or `# <age>: 69 <sex>: M` (PhysioNet's newer style).
// '?' means unknown in all of them. The first comment that matches a habit wins.

const MIT_STYLE = /^(\d{1,3}|\?)\s+([MF?])(?:\s|$)/
const AGE_LABEL = /(?:^|[\s,;])<?age>?\s*:\s*(\d{1,3}|\?)(?=$|[\s,;])/i
const SEX_LABEL = /(?:^|[\s,;])<?(?:sex|gender)>?\s*:\s*(male|female|[MF?])(?=$|[\s,;])/i

/** Age (whole years) and sex found in comment lines, each left out when absent or '?'. */
export function parseWfdbAgeSex(comments: readonly string[]): { age?: number; sex?: 'M' | 'F' } {
  for (const c of comments) {
    const mit = MIT_STYLE.exec(c)
    if (mit) return pack(mit[1], mit[2])
    const age = AGE_LABEL.exec(c)
    const sex = SEX_LABEL.exec(c)
    if (age || sex) return pack(age?.[1], sex?.[1])
  }
  return {}
}

function pack(age: string | undefined, sex: string | undefined): { age?: number; sex?: 'M' | 'F' } {
  const out: { age?: number; sex?: 'M' | 'F' } = {}
  if (age !== undefined && age !== '?') out.age = Number(age)
  const s = sex?.[0]?.toUpperCase()
  if (s === 'M' || s === 'F') out.sex = s
  return out
}
