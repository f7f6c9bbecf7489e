// Part B of the lesson (sections 5–8): the six notes, the exercise, the proofs and the
// practice. widgets.js loads this module once a page holds one of its elements; the lesson
// page and the catalogue, which show them all, import it themselves.
import './note-graph.js';
import './note-space.js';
import './note-batch.js';
import './note-encoder.js';
import './note-cross.js';
import './note-scale.js';
import './exercise.js';
import './proofs.js';
import './practice.js';
import './quiz.js';
import './interview.js';
