/**
 * The artifact routes: W&B's GraphQL (`graphql.ts`) and the signed storage of its URLs
 * (`storage.ts`).
 */
import { type Route, route } from "../route.js";
import { graphql } from "./graphql.js";
import type { ArtifactState } from "./lora.js";
import { storage } from "./storage.js";

/** The artifact routes: GraphQL and signed storage. */
export const ARTIFACT_ROUTES: ReadonlyArray<Route<ArtifactState>> = [
  route({ method: "POST", path: "/graphql", auth: "wandb", handle: graphql }),
  route({ method: "PUT", path: "/storage/{token}", auth: "none", handle: storage("PUT") }),
  route({ method: "GET", path: "/storage/{token}", auth: "none", handle: storage("GET") }),
];
