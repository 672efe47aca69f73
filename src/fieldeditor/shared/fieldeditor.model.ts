/** Facts of the field editor's stored data that more than one room relies on. */

/**
 * Distance between neighbouring option positions after an append, a sort or a renumbering (order is kept in a
 * sparse `position`, see the options migration). The options room writes positions this far apart; the
 * maintenance data task that repairs an order restores them.
 */
export const POSITION_GAP = 1 << 20;
