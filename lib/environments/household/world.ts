import { APPLIANCE_FOR, LAMP_TYPES, SLICING_TOOLS, type HouseholdProperty } from "./catalogue";
import type { HouseholdCommand } from "./commands";
import {
  NOTHING_HAPPENS,
  THINK_OK,
  arriveFeedback,
  cleanFeedback,
  closeFeedback,
  compareEntityNames,
  coolFeedback,
  describeReceptacle,
  examineObjectFeedback,
  heatFeedback,
  inventoryFeedback,
  lookFeedback,
  openFeedback,
  pickupFeedback,
  putFeedback,
  sliceFeedback,
  toggleFeedback,
  type ReceptacleView,
} from "./feedback";
import { typeOfName, type HouseholdScene } from "./task";

/**
 * The household world's state and rules: receptacles at places in the room
 * (several may share one place, ALFWorld's `receptacleAtLocation`), objects in
 * them, the agent's location and what it holds. The rules are ALFWorld's PDDL
 * domain (shared/data/alfworld/alfworld-alfred.pddl), action by action: every
 * action that needs the agent "at" a receptacle needs it at that receptacle's
 * location, so at a shared location the agent reaches all of its receptacles.
 * The two deliberate differences are marked DEVIATION below.
 */

/** A receptacle's live state. */
export interface WorldReceptacle {
  name: string;
  type: string;
  openable: boolean;
  opened: boolean;
  /** Its place: receptacles with equal keys share a location (`#3` for `location: 3`, else its own name). */
  place: string;
}

/** An object's live state. `location` is its receptacle, or null while the agent holds it. */
export interface WorldObject {
  name: string;
  type: string;
  properties: ReadonlySet<HouseholdProperty>;
  location: string | null;
  hot: boolean;
  cool: boolean;
  clean: boolean;
  sliced: boolean;
  /** ALFWorld `isToggled`: set by the first `use` and never cleared. */
  toggled: boolean;
  /** ALFWorld `isOn`: flipped by every `use`. */
  on: boolean;
}

/** The UI's view of the agent after a step (StepResult.state). */
export interface AgentSnapshot {
  /** The receptacle the agent stands at; null in the middle of the room. */
  location: string | null;
  /** What it holds: ALFWorld agents hold at most one object. */
  inventory: string[];
}

/** The live world of one episode. Build with {@link HouseholdWorld.fromScene}. */
export class HouseholdWorld {
  readonly receptacles = new Map<string, WorldReceptacle>();
  readonly objects = new Map<string, WorldObject>();
  /** The receptacle the agent stands at; null in the middle of the room (the start). */
  location: string | null = null;
  /** The object the agent holds, if any. */
  holding: string | null = null;

  /** A fresh world in the scene's initial state: agent in the middle of the room, empty-handed. */
  static fromScene(scene: HouseholdScene): HouseholdWorld {
    const world = new HouseholdWorld();
    for (const receptacle of scene.receptacles) {
      world.receptacles.set(receptacle.name, {
        name: receptacle.name,
        type: typeOfName(receptacle.name),
        openable: receptacle.openable,
        opened: receptacle.openable && receptacle.opened,
        place: receptacle.location === undefined ? receptacle.name : `#${receptacle.location}`,
      });
    }
    for (const object of scene.objects) {
      world.objects.set(object.name, {
        name: object.name,
        type: typeOfName(object.name),
        properties: new Set(object.properties),
        location: object.in,
        hot: false,
        cool: false,
        clean: false,
        sliced: false,
        toggled: false,
        on: false,
      });
    }
    return world;
  }

  /** The objects in a receptacle, in ALFWorld's listing order. */
  contents(receptacle: string): WorldObject[] {
    return [...this.objects.values()]
      .filter((object) => object.location === receptacle)
      .sort((a, b) => compareEntityNames(a.name, b.name));
  }

  /** The view of a receptacle the feedback sentences need. */
  view(receptacle: WorldReceptacle): ReceptacleView {
    return {
      name: receptacle.name,
      openable: receptacle.openable,
      opened: receptacle.opened,
      contents: this.contents(receptacle.name).map((object) => object.name),
    };
  }

  /** Where the agent is and what it holds. */
  snapshot(): AgentSnapshot {
    return { location: this.location, inventory: this.holding === null ? [] : [this.holding] };
  }

  /** True when the object's contents can be seen and reached (ALFWorld: `(or (not (openable ?r)) (opened ?r))`). */
  private accessible(receptacle: WorldReceptacle): boolean {
    return !receptacle.openable || receptacle.opened;
  }

  /** The receptacle the agent went to, if the agent stands at one. */
  private here(): WorldReceptacle | undefined {
    return this.location === null ? undefined : this.receptacles.get(this.location);
  }

  /**
   * The receptacles at the agent's location (`atLocation ?a ?l & receptacleAtLocation ?r ?l`):
   * the one it went to and those sharing its place, in ALFWorld's listing order; empty in the middle of the room.
   */
  receptaclesHere(): WorldReceptacle[] {
    const here = this.here();
    if (here === undefined) return [];
    return [...this.receptacles.values()].filter((receptacle) => receptacle.place === here.place).sort((a, b) => compareEntityNames(a.name, b.name));
  }

  /** The receptacle named `name` if it stands at the agent's location. */
  private atHand(name: string): WorldReceptacle | undefined {
    const here = this.here();
    const receptacle = this.receptacles.get(name);
    return here !== undefined && receptacle !== undefined && receptacle.place === here.place ? receptacle : undefined;
  }

  /** True when two receptacles (by name) share a location. */
  sameLocation(a: string, b: string): boolean {
    const first = this.receptacles.get(a);
    const second = this.receptacles.get(b);
    return first !== undefined && second !== undefined && first.place === second.place;
  }

  /** An object in a receptacle at the agent's location (`objectAtLocation ?o ?l`), with that receptacle. */
  private objectHere(name: string): { object: WorldObject; receptacle: WorldReceptacle } | undefined {
    const object = this.objects.get(name);
    const receptacle = object?.location == null ? undefined : this.atHand(object.location);
    return object === undefined || receptacle === undefined ? undefined : { object, receptacle };
  }

  /** An object lying visibly in a receptacle at the agent's location (ALFWorld examineObject / SliceObject). */
  private reachableObject(name: string): WorldObject | undefined {
    const found = this.objectHere(name);
    return found !== undefined && this.accessible(found.receptacle) ? found.object : undefined;
  }

  /** `look`: the receptacles faced and, where several share the place, every object in them (feedback.ts lookFeedback). */
  private look(): string {
    const facing = this.receptaclesHere();
    const nextTo = facing.length < 2 ? [] : facing.flatMap((receptacle) => this.contents(receptacle.name).map((object) => object.name));
    return lookFeedback(
      facing.map((receptacle) => receptacle.name),
      nextTo,
    );
  }

  /** The held object named `name`, if the agent holds it. */
  private held(name: string): WorldObject | undefined {
    return this.holding === name ? this.objects.get(name) : undefined;
  }

  /**
   * Executes one command and returns ALFWorld's reply. A command whose
   * preconditions do not hold changes nothing and returns "Nothing happens.".
   */
  apply(command: HouseholdCommand): string {
    switch (command.verb) {
      case "think":
        return THINK_OK;
      case "look":
        return this.look();
      case "inventory":
        return inventoryFeedback(this.holding === null ? [] : [this.holding]);
      case "go to":
        return this.goTo(command.target);
      case "open":
        return this.open(command.target);
      case "close":
        return this.close(command.target);
      case "examine":
        return this.examine(command.target);
      case "take":
        return this.take(command.object, command.receptacle);
      case "put":
        return this.put(command.object, command.receptacle);
      case "use":
        return this.use(command.object);
      case "slice":
        return this.slice(command.object, command.tool);
      default:
        return this.transform(command.verb, command.object, command.tool);
    }
  }

  /**
   * GotoLocation: a receptacle at another location than the agent's (TextWorld
   * binds `?lStart` and `?lEnd` to distinct locations, so going to your own place —
   * the receptacle you stand at, or another one sharing its location — is not
   * admissible: "Nothing happens."). The reply describes the receptacle.
   */
  private goTo(target: string): string {
    const receptacle = this.receptacles.get(target);
    if (receptacle === undefined || this.atHand(target) !== undefined) return NOTHING_HAPPENS;
    this.location = target;
    return arriveFeedback(this.view(receptacle));
  }

  /** The DEVIATION of open/close: walk to a receptacle elsewhere; at the agent's own location, stay. */
  private walkTo(receptacle: WorldReceptacle): void {
    if (this.atHand(receptacle.name) === undefined) this.location = receptacle.name;
  }

  /**
   * OpenObject: an openable, closed receptacle. DEVIATION: ALFWorld requires the
   * agent to stand at it; here opening a receptacle elsewhere walks there first,
   * because the paper's heat transcripts (react_heat_0, act_heat_0) open the
   * fridge straight from the middle of the room.
   */
  private open(target: string): string {
    const receptacle = this.receptacles.get(target);
    if (receptacle === undefined || !receptacle.openable || receptacle.opened) return NOTHING_HAPPENS;
    this.walkTo(receptacle);
    receptacle.opened = true;
    return openFeedback(this.view(receptacle));
  }

  /** CloseObject: an open receptacle; walks there first, like {@link open}. */
  private close(target: string): string {
    const receptacle = this.receptacles.get(target);
    if (receptacle === undefined || !receptacle.openable || !receptacle.opened) return NOTHING_HAPPENS;
    this.walkTo(receptacle);
    receptacle.opened = false;
    return closeFeedback(receptacle.name);
  }

  /** examineReceptacle (a receptacle at the agent's location) or examineObject (held, or visible here). */
  private examine(target: string): string {
    const receptacle = this.atHand(target);
    if (receptacle !== undefined) return describeReceptacle(this.view(receptacle));
    const object = this.held(target) ?? this.reachableObject(target);
    if (object === undefined) return NOTHING_HAPPENS;
    return examineObjectFeedback({
      name: object.name,
      receptacleObject: object.properties.has("receptacleObject"),
      toggleable: object.properties.has("toggleable"),
      sliceable: object.properties.has("sliceable"),
      hot: object.hot,
      cool: object.cool,
      clean: object.clean,
      sliced: object.sliced,
      toggled: object.toggled,
    });
  }

  /** PickupObject: a pickupable object in an (accessible) receptacle at the agent's location; hands empty. */
  private take(objectName: string, receptacleName: string): string {
    const here = this.atHand(receptacleName);
    const object = this.objects.get(objectName);
    if (here === undefined || object === undefined) return NOTHING_HAPPENS;
    if (object.location !== here.name || !this.accessible(here) || this.holding !== null) return NOTHING_HAPPENS;
    if (!object.properties.has("pickupable")) return NOTHING_HAPPENS;
    object.location = null;
    this.holding = object.name;
    return pickupFeedback(object.name, here.name);
  }

  /**
   * PutObject: the held object into an (accessible) receptacle at the agent's
   * location. ALFWorld also checks `canContain`; every receptacle here takes every
   * object (a simplification: our scenes never ask for an impossible placement).
   */
  private put(objectName: string, receptacleName: string): string {
    const here = this.atHand(receptacleName);
    const object = this.held(objectName);
    if (here === undefined || object === undefined || !this.accessible(here)) return NOTHING_HAPPENS;
    object.location = here.name;
    this.holding = null;
    return putFeedback(object.name, here.name);
  }

  /** ToggleObject: a toggleable object in a receptacle at the agent's location (open or not, as in the PDDL). */
  private use(objectName: string): string {
    const object = this.objectHere(objectName)?.object;
    if (object === undefined || !object.properties.has("toggleable")) return NOTHING_HAPPENS;
    object.on = !object.on;
    object.toggled = true;
    return toggleFeedback(object.name, object.toggled);
  }

  /**
   * HeatObject / CoolObject / CleanObject: hold an object with the property, at the
   * location of a microwave / fridge / sinkbasin. The appliance need not be open
   * (as in ALFWorld and the transcripts). Heating clears cool and vice versa.
   */
  private transform(verb: "heat" | "cool" | "clean", objectName: string, toolName: string): string {
    const object = this.held(objectName);
    const here = this.atHand(toolName);
    if (object === undefined || here === undefined || here.type !== APPLIANCE_FOR[verb]) return NOTHING_HAPPENS;
    switch (verb) {
      case "heat":
        if (!object.properties.has("heatable")) return NOTHING_HAPPENS;
        object.hot = true;
        object.cool = false;
        return heatFeedback(object.name, here.name);
      case "cool":
        if (!object.properties.has("coolable")) return NOTHING_HAPPENS;
        object.cool = true;
        object.hot = false;
        return coolFeedback(object.name, here.name);
      default:
        if (!object.properties.has("cleanable")) return NOTHING_HAPPENS;
        object.clean = true;
        return cleanFeedback(object.name, here.name);
    }
  }

  /** SliceObject: hold a knife or butterknife; the sliceable object lies visibly at the agent's location. */
  private slice(objectName: string, toolName: string): string {
    const tool = this.held(toolName);
    const object = this.reachableObject(objectName);
    if (tool === undefined || object === undefined) return NOTHING_HAPPENS;
    if (!(SLICING_TOOLS as readonly string[]).includes(tool.type) || !object.properties.has("sliceable")) return NOTHING_HAPPENS;
    object.sliced = true;
    return sliceFeedback(object.name, tool.name);
  }

  /** The lamps (toggleable objects of a lamp type or the given type) in the room. */
  lamps(type?: string): WorldObject[] {
    return [...this.objects.values()].filter(
      (object) => object.properties.has("toggleable") && (type === undefined ? (LAMP_TYPES as readonly string[]).includes(object.type) : object.type === type),
    );
  }
}
