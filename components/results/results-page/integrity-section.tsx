import type { ResultsPageContext } from "./context";
import { IntegritySection } from "@/components/results/exclusions";

/** The results page's section: Participant integrity and exclusions (paginated signal table). */
export function IntegrityPart({ ctx }: { ctx: ResultsPageContext }) {
  const { studyId, participantPage, integrity, href } = ctx;
  return (
    <IntegritySection
      results={integrity}
      studyId={studyId}
      paging={{ page: participantPage, href: (p) => href({ participants: p > 1 ? String(p) : null }) }}
    />
  );
}
