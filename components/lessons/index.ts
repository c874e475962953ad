/** Lessons (issue 15 parts 2, 3 and 5): the Lessons page, the lesson player with its docked narration and predictions. */
export { LessonList } from "./lesson-list";
export { LessonPage, LessonsPage } from "./lesson-pages";
export { LessonPlayer } from "./lesson-player";
export { LESSON_KEYS } from "./use-lesson-keys";
