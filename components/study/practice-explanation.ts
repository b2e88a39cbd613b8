/**
 * One sentence per task on how to see the correct answer in the images, shown with the practice feedback (after the
 * answer is stored and the server has sent the correct answer). Generic per task: it never needs the answer key.
 */
const HOW_TO_SEE: Record<string, string> = {
  translation:
    "Compare image 4 with image 1 (the front view): the whole scene has shifted; a shift to the right is +x, up is +y, and a scene that got smaller or larger moved along z (away from or toward you).",
  rotation:
    "Compare image 4 with image 1 (front view) and use the left and top views to tell the axis: a turn in the picture plane is about z, a turn around the vertical is about y, around the horizontal about x; counter-clockwise seen from the axis tip is positive.",
  zooming:
    "Compare image 4 with image 1: the complex came toward you along z, so the same atoms look larger; the stronger the growth, the larger the distance.",
  residue_ligand:
    "Look for a nitrogen (blue) or oxygen (red) atom of the residue that lies close to a nitrogen or oxygen of the ligand in several views; only such N/O pairs about 3 Å apart form hydrogen bonds.",
  translation_rotation:
    "Use Compare side by side: the change from image 1 to image 4 (shift, then turn) must equal the change from image 5 (the second complex) to the correct option.",
  rotation_rotation:
    "Use Compare side by side with image 4: the change from image 4 to the correct option repeats the change from image 1 to image 4 (the same two turns, in the same order).",
  docking:
    "Compare the ligand views (images 4–6) with the pocket views: first find the turn that gives the ligand the orientation that fits the pocket, then the shift along x that brings it into the pocket.",
  interaction_location:
    "Find the two named atoms in the front view and judge where the midpoint between them sits relative to the centre: the move is the opposite of that offset (a point left of the centre needs a positive x move).",
  pocket_ligand:
    "Go through the six views and look for blue (N) or red (O) atoms of the pocket about 3 Å from blue or red atoms of the ligand; each such pair that stays close in every view is a hydrogen bond.",
};

export function howToSee(taskId: string): string {
  return (
    HOW_TO_SEE[taskId] ??
    "Compare the images with the correct answer in mind; the instructions describe the conventions."
  );
}
