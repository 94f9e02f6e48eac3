// WordPiece as Hugging Face's BertTokenizer does it, on a small vocabulary: cleaning, CJK,
// lower-casing and accents, punctuation, greedy longest pieces, [UNK], bert_score's
// truncation and empty text.
import { describe, expect, it } from 'vitest'
import { createWordPiece, type WordPieceOptions } from '../../src/metrics/bertscore-wordpiece.ts'
import { TEST_VOCAB } from './bertscore-tiny-onnx.ts'

const uncased: WordPieceOptions = { lowerCase: true }
const cased: WordPieceOptions = { lowerCase: false }

describe('createWordPiece', () => {
  it.each([
    ['splits punctuation and takes the longest pieces first', 'Sinus bradycardia, 72 bpm.', uncased, 'sinus brady ##cardia , 72 bpm .'],
    ['keeps case for a cased model', 'Sinus rhythm', cased, '[UNK] rhythm'],
    ['splits on any Unicode punctuation (U+2011)', 'ST\u2011segment depression', uncased, 'st [UNK] segment depression'],
    ['splits ASCII symbols that Unicode calls S*', 'st-segment', uncased, 'st - segment'],
    ['strips accents when lower-casing', 'CAFÉ', uncased, 'cafe'],
    ['keeps accents for a cased model unless asked', 'Café', cased, '[UNK]'],
    ['strips accents on request without lower-casing', 'Café', { lowerCase: false, stripAccents: true }, 'Cafe'],
    ['puts CJK ideographs apart', '中文', uncased, '中 文'],
    ['drops control and format characters, maps whitespace', 'at\u0007\u200b\t72\u00a0bpm', uncased, 'at 72 bpm'],
    ['gives [UNK] for a word with no split', 'xyz', uncased, '[UNK]'],
    ['uses ## pieces', 'unaffable', uncased, 'un ##aff ##able'],
    ['gives [UNK] for a word over 100 characters', 'a' + 'b'.repeat(100), uncased, '[UNK]'],
    ['takes a 100-character word apart', 'a' + 'b'.repeat(99), uncased, ['a', ...new Array(99).fill('##b')].join(' ')],
    ['gives [CLS] [SEP] for an empty text', '  \n ', uncased, ''],
  ])('%s', (_, text, options, want) => {
    const got = createWordPiece(TEST_VOCAB, options).encode(text).tokens
    expect(got.join(' ')).toBe(['[CLS]', want, '[SEP]'].filter(Boolean).join(' '))
  })

  it('numbers tokens by line and marks [CLS]/[SEP]/[PAD]/[UNK]', () => {
    const wp = createWordPiece(TEST_VOCAB, uncased)
    expect(wp.ids).toEqual({ pad: 0, unk: 1, cls: 2, sep: 3 })
    expect(Array.from(wp.encode('Sinus rhythm at 72 bpm').ids)).toEqual([2, 5, 6, 10, 11, 12, 3])
  })

  it('truncates to maxLength tokens in all, [CLS] and [SEP] included, as bert_score', () => {
    expect(createWordPiece(TEST_VOCAB, { lowerCase: true, maxLength: 5 }).encode('sinus rhythm at 72 bpm').tokens).toEqual(['[CLS]', 'sinus', 'rhythm', 'at', '[SEP]'])
  })

  it('refuses a vocabulary without the special tokens', () => {
    expect(() => createWordPiece('a\nb\n', uncased)).toThrow(/vocab.txt has no \[CLS\] token/)
  })
})
