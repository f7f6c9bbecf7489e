export default { weeks: ['index', 'head', 'softmax'] };
