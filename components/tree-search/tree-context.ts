"use client";

import { createContext, useContext } from "react";

/** What a tree node may ask of the tree around it: collapse or expand its subtree. Stable for the life of the view. */
export interface SearchTreeActions {
  toggleCollapse: (id: string) => void;
}

/** Provided by the search tree; outside one (a test), the toggle does nothing. */
export const SearchTreeActionsContext = createContext<SearchTreeActions>({ toggleCollapse: () => {} });

/** The enclosing search tree's actions. */
export function useSearchTreeActions(): SearchTreeActions {
  return useContext(SearchTreeActionsContext);
}
