/**
 * What makes a docket a "Schedule A" case, and a party its plaintiff: rules over the text CourtListener gives.
 *
 * The caption of a Schedule A case names its defendants by the schedule attached to the complaint, in wording that
 * varies from firm to firm and court to court: "The Partnerships and Unincorporated Associations Identified on
 * Schedule A", "... Identified in Schedule "A"", "Schedule 'A'", "Does 1-X", "Does 1 through 100". One rule reads the
 * caption with case, quotes and punctuation folded away (normalizeText) and looks for any of these forms.
 */
import { normalizeText } from '../marks/lookup-keys';
import type { DocketParty } from './court-listener';

const SCHEDULE_A_CAPTION = /\b(?:sched(?:ule)? a|unincorporated associations?|does? 1 (?:through |to )?(?:\d+|x))\b/;

export function isScheduleACaseName(caseName: string): boolean {
  return SCHEDULE_A_CAPTION.test(normalizeText(caseName));
}

/** A party that brings the case: "Plaintiff", "Consolidated Plaintiff"; not a counter- or third-party plaintiff. */
export function isPlaintiff(party: DocketParty): boolean {
  return party.types.some((type) => /plaintiff/i.test(type) && !/counter|third|former/i.test(type));
}
