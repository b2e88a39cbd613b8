/** Participant-facing text shared by the task instructions (spec §2 conventions). */

export const AXES_CONVENTION =
  "Axes are fixed to the screen and refer to the front view: x points to the right, y points up, " +
  "and z points out of the screen toward you.";

export const ROTATION_CONVENTION =
  "Rotations follow the right-hand rule: point your right thumb along the positive axis; your fingers " +
  "curl in the direction of a positive angle. Seen from the positive end of the axis, a positive angle " +
  "turns counter-clockwise (so a positive roll about z turns the picture counter-clockwise on screen).";

export const ZOOM_CONVENTION =
  "Moving along z by a positive distance brings the complex closer to you, so it looks larger.";

export const VIEW_ORDER = "front, left, top, back, right, bottom";

export const SIX_VIEWS_CONVENTION =
  "The left, top, back, right and bottom views show the same scene turned so that that side faces you.";

export const FORMAT_TOLERANCE =
  "Capital letters, extra spaces, a final full stop and a unit after a number (Å, A, angstroms, °, deg, degrees) do not matter; anything else must follow the format exactly.";
