// Reading free model answers for scoring ("Accuracy" and "MAE and ScoreMAE";
// the Holtercare-Bench paper and release, "Metrics"). Every parser is pure, never calls a model, and
// returns either what the answer says or `{unparsed, detail}` with why it could not be read, so
// a scorer counts unparsed answers beside the metric (an unparsed closed answer is wrong).
// Reasons: empty, unfinished (a <think> block that never closed), refusal ("I cannot determine"),
// ambiguous (two answers, a hedge), not-an-option (a letter or value not offered), conflict
// (a letter with another option's text), no-answer (nothing recognisable).
//
// Before any rule: <think>...</think> is cut, a JSON answer's "answer"-like field is taken
// ({"answer": "C"}), \boxed{C} reads as "Answer: C", markdown is dropped, "1,234" is 1234.
//
// parseChoice (closed tasks with options), in this order (answer-parse-choice.ts):
//   1. the whole answer is a letter form: "C", "c", "(C)", "C)", "C.", "Option C: 366253",
//      "C. 366253" (any case when it is the whole answer);
//   2. else the LAST explicit statement wins: "answer is C", "Answer: C", "C is correct",
//      "I choose C", "so C", "Actually, C" ("The answer is A... Actually C" is C); a hedge inside
//      it ("answer is A or B") is ambiguous;
//   3. else lines that are letter forms ("B" above an explanation) if they name one letter;
//   4. else the capital letters that stand alone: one distinct letter is the answer, several are
//      ambiguous ("A or B"). Not letters: inside words ("Atrial", "Bigeminy"), in names ("A-fib"),
//      the article "A" before a lower-case word ("A premature beat..."), "I" (never an option
//      letter), negated ones ("not A", "neither A nor B", "B is too early", "Options A and D
//      are too far");
//   5. else the option's text: the whole answer equal to one (case, spacing, units aside:
//      "366253 ms", "366,253"); numbers contained in the answer, where an option whose numbers
//      are all given and include another's wins ("51368192, 51369692" over "51368192"); counts
//      read as in parseNumberAnswer ("no PACs" is option "0"); yes/no options through
//      parseYesNo; named options through their mentions (PVC is Premature Ventricular
//      Contraction), the asserted one, or for `ask: 'absent'` ("which is not represented?")
//      the negated one;
//   6. else refusal or no-answer.
//   A letter followed by a different option's exact text ("B. 366253" when C is 366253) is a
//   conflict, not a guess.
//
// parseYesNo (closed_presence without options): the first word decides when it is yes/no-like
// ("Yes", "yes.", "No, there is none", "Yes: present", "Absent", "Definitely not"); "Y" and "N"
// count only as the whole answer; hedges ("Yes and no", "Possibly", "Not sure") are ambiguous;
// "No doubt, ..." is not a no. Else the last "answer is yes/no". Else the sentences that say
// whether something is present (about the event when it is given and named), each yes or no by
// the parity of its negations: "There is no evidence of PVC" is no, "It is not absent" is yes
// (two negations); a hedged sentence ("cannot rule out", "may be") is ambiguous; sentences that
// disagree are ambiguous unless the last conclusion ("so", "therefore") decides.
//
// parseNumberAnswer (open counting, HR extremum) and parseTimestampList (open event timing):
// answer-parse-number.ts. parseLabels (open diagnosis), with its negation rule:
// answer-parse-labels.ts.
export { parseChoice, type ChoiceOptions } from './answer-parse-choice.ts'
export { findMentions, parseLabels, type LabelName, type Mention } from './answer-parse-labels.ts'
export { parseNumberAnswer, parseTimestampList, type NumberKind } from './answer-parse-number.ts'
export type { Ask } from './answer-parse-options.ts'
export { cleanAnswer, isUnparsed, unparsed, type Unparsed, type UnparsedReason } from './answer-parse-text.ts'
export { parseYesNo, type YesNo, type YesNoOptions } from './answer-parse-yesno.ts'
